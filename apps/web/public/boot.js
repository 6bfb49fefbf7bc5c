// Starts the app once the browser has painted the HTML it has (vite.config.ts, `startAfterFirstPaint`): the
// public pages arrive prerendered and a public memorial rendered on the server, so they are readable before
// any of the app's script runs. Measured with Lighthouse: when the app's ~90 KB of script was fetched and run
// before the first paint, the paint waited for it.
(function () {
  var boot = document.querySelector('script[data-app]');
  if (!boot) return;
  var started = false;
  function add(tag, attrs) {
    var el = document.createElement(tag);
    for (var k in attrs) el.setAttribute(k, attrs[k]);
    document.head.appendChild(el);
  }
  function start() {
    if (started) return;
    started = true;
    (boot.getAttribute('data-preload') || '').split(' ').forEach(function (href) {
      if (href) add('link', { rel: 'modulepreload', crossorigin: '', href: href });
    });
    add('script', { type: 'module', crossorigin: '', src: boot.getAttribute('data-app') });
  }
  // A tap on a button before the app has taken over the page (it does nothing yet) is kept, the app started at
  // once, and the tap repeated on the same button when the app announces it has started (main.tsx). Links and
  // forms work without the app (forms post; the server answers with the page).
  var taps = [];
  function keep(event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('button') : null;
    if (!button || button.form) return;
    // Ours alone until the app has started: React, once it is hydrating, would repeat it as well.
    event.preventDefault();
    event.stopPropagation();
    if (taps.indexOf(button) < 0) taps.push(button);
    start();
  }
  document.addEventListener('click', keep, true);
  window.addEventListener('aandenken:started', function () {
    document.removeEventListener('click', keep, true);
    var kept = taps;
    taps = [];
    kept.forEach(function (button) {
      if (button.isConnected) button.click();
    });
  });
  // Signed in (oidc-client-ts keeps the user in session storage): the prerendered, signed-out header would
  // show until the app replaces it, so the app starts at once, as it always did.
  var signedIn = false;
  try {
    for (var i = 0; i < sessionStorage.length; i++)
      if ((sessionStorage.key(i) || '').indexOf('oidc.user:') === 0) signedIn = true;
  } catch (e) {
    /* no storage: treat as signed out */
  }
  if (signedIn) return start();
  // After the first paint: the browser reports it (paint timing); where it cannot, after the next frame.
  // A hidden tab paints nothing, so a timer starts the app there.
  try {
    if (PerformanceObserver.supportedEntryTypes.indexOf('paint') >= 0) {
      new PerformanceObserver(function (_list, observer) {
        observer.disconnect();
        setTimeout(start, 0);
      }).observe({ type: 'paint', buffered: true });
      setTimeout(start, 1000);
      return;
    }
  } catch (e) {
    /* no paint timing: fall through */
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 300);
})();
