// Ad hoc: one Lighthouse mobile run on a URL, printing the long tasks and the per-script boot-up time.
// Usage: node bench/lh-probe.mjs URL [runs] [--busy]
import fs from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_FLAGS, startBusyLoop } from './sections/web.mjs';

const [url, runsArg = '1'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: CHROME_FLAGS,
});
const stopBusyLoop = process.argv.includes('--busy') ? startBusyLoop() : null;
try {
  for (let i = 0; i < Number(runsArg); i++) {
    const r = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const a = r.lhr.audits;
    const short = (u) => (u ?? '').replace(/^https?:\/\/[^/]+/, '');
    console.log(
      `score ${Math.round(r.lhr.categories.performance.score * 100)} TBT ${Math.round(a['total-blocking-time'].numericValue)} LCP ${Math.round(a['largest-contentful-paint'].numericValue)} bench ${r.lhr.environment.benchmarkIndex}`,
    );
    console.log(
      'long tasks:',
      (a['long-tasks'].details?.items ?? [])
        .map((t) => `${short(t.url)} ${Math.round(t.startTime)}+${Math.round(t.duration)}`)
        .join(' | '),
    );
    console.log(
      'bootup:',
      (a['bootup-time'].details?.items ?? [])
        .map((t) => `${short(t.url)} s${Math.round(t.scripting)} p${Math.round(t.scriptParseCompile)}`)
        .join(' | '),
    );
    console.log(
      'breakdown:',
      (a['mainthread-work-breakdown'].details?.items ?? [])
        .map((t) => `${t.group} ${Math.round(t.duration)}`)
        .join(' | '),
    );
    if (process.env.LH_OUT) fs.writeFileSync(`${process.env.LH_OUT}-${i}.json`, r.report);
  }
} finally {
  await stopBusyLoop?.();
  await chrome.kill();
}
