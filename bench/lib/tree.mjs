// Memory of a whole process tree on Linux (/proc): `npm start`, the shell it runs, the server and any child.
import fs from 'node:fs';

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The process and all its descendants (by /proc/<pid>/task/<tid>/children). */
export function treePids(pid) {
  const out = [];
  const walk = (p) => {
    out.push(p);
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const t of tasks)
      for (const c of read(`/proc/${p}/task/${t}/children`).trim().split(/\s+/).filter(Boolean))
        walk(Number(c));
  };
  walk(pid);
  return out;
}

const kbField = (text, key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);

/** What a process is, in a few words: its command line with the repository's path cut off. */
export function commandOf(pid, root = '') {
  const args = read(`/proc/${pid}/cmdline`).split('\0').filter(Boolean);
  return args
    .map((a) => (root ? a.replaceAll(`${root}/`, '') : a))
    .map((a) => a.replace(/^.*\/(node|npm|sh|npm-cli\.js)$/, '$1'))
    .join(' ')
    .slice(0, 120);
}

/** Resident memory split of one process from /proc/<pid>/smaps_rollup, in MB. */
export function rollupOf(pid) {
  const text = read(`/proc/${pid}/smaps_rollup`);
  const status = read(`/proc/${pid}/status`);
  const mb = (kb) => kb / 1024;
  const rss = kbField(text, 'Rss');
  const anon = kbField(text, 'Anonymous');
  const shmem = kbField(status, 'RssShmem');
  return {
    rssMb: mb(rss),
    pssMb: mb(kbField(text, 'Pss')),
    // Heap of every kind (V8's, malloc's, libvips' buffers): what the process itself allocated.
    anonMb: mb(anon),
    // Mapped files (node's binary, shared libraries such as libvips, PGlite's WebAssembly is anonymous).
    fileMb: mb(rss - anon - shmem),
    shmemMb: mb(shmem),
    peakMb: mb(kbField(status, 'VmHWM')),
  };
}

/** The tree's resident memory (sum of each process's RSS) and each process's split. */
export function treeMemory(pid, root) {
  const processes = treePids(pid)
    .map((p) => ({ pid: p, command: commandOf(p, root), ...rollupOf(p) }))
    .filter((p) => p.rssMb > 0);
  const sum = (k) => processes.reduce((s, p) => s + p[k], 0);
  return { rssMb: sum('rssMb'), pssMb: sum('pssMb'), processes };
}

/** The tree's resident memory only (cheap enough to sample every 50 ms). */
export function treeRssMb(pid) {
  let kb = 0;
  for (const p of treePids(pid)) kb += kbField(read(`/proc/${p}/status`), 'VmRSS');
  return kb / 1024;
}

/** CPU seconds used so far by the tree (user + system), from /proc/<pid>/stat. */
export function treeCpuSeconds(pid) {
  let ticks = 0;
  for (const p of treePids(pid)) {
    const stat = read(`/proc/${p}/stat`);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / 100;
}

/** Samples the tree's resident memory every 50 ms while `fn` runs; the highest sum seen. */
export async function treePeak(pid, fn) {
  let peak = treeRssMb(pid);
  const timer = setInterval(() => {
    const now = treeRssMb(pid);
    if (now > peak) peak = now;
  }, 50);
  try {
    const result = await fn();
    return { result, peakMb: Math.max(peak, treeRssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Waits until the tree is at rest: less than 3 % of one core over `windowMs` (the example memorials' photos and
 * their background variants done). Gives up after `timeoutMs` and says so.
 */
export async function untilIdle(pid, { windowMs = 2000, timeoutMs = 300_000 } = {}) {
  const t0 = Date.now();
  for (;;) {
    const c0 = treeCpuSeconds(pid);
    await new Promise((r) => setTimeout(r, windowMs));
    const used = treeCpuSeconds(pid) - c0;
    if (used / (windowMs / 1000) < 0.03) return { idle: true, waitedMs: Date.now() - t0 };
    if (Date.now() - t0 > timeoutMs) return { idle: false, waitedMs: Date.now() - t0 };
  }
}
