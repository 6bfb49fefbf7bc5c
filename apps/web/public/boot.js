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
  // A link to a form that names the field to start in (data-focus: the memorial page's 'Steek een kaarsje
  // aan') lands on the form with that field focused, so a tap opens the keyboard at once, before and after the
  // app has started. The form is then held where it landed while the page above it settles (sections that
  // render, hydrate or load when the visitor comes near change their height): the browser's own scroll
  // anchoring did not hold it. Until the visitor scrolls or taps elsewhere, at most ten seconds. Should the
  // app render the form afresh meanwhile (lib/island.tsx, when a section gets an update before it has
  // hydrated), the focus moves to the new field of that id.
  function hold(target, field) {
    var top = target.getBoundingClientRect().top;
    var id = target.id;
    function check() {
      if (!target.isConnected) target = document.getElementById(id) || target;
      if (!field.isConnected && (!document.activeElement || document.activeElement === document.body)) {
        field = document.getElementById(field.id) || field;
        field.focus({ preventScroll: true });
      }
      var moved = target.getBoundingClientRect().top - top;
      if (Math.abs(moved) >= 1) window.scrollBy({ top: moved, behavior: 'instant' });
    }
    // Sizes change with a layout (resize), the form can be replaced without one (mutation).
    var resized = new ResizeObserver(check);
    var replaced = new MutationObserver(check);
    resized.observe(document.body);
    replaced.observe(document.body, { childList: true, subtree: true });
    var intents = ['wheel', 'touchmove', 'pointerdown'];
    function stop(event) {
      if (event && event.type === 'pointerdown' && target.contains(event.target)) return;
      resized.disconnect();
      replaced.disconnect();
      intents.forEach(function (type) {
        window.removeEventListener(type, stop, true);
      });
    }
    intents.forEach(function (type) {
      window.addEventListener(type, stop, { capture: true, passive: true });
    });
    setTimeout(stop, 10000);
  }
  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[data-focus]') : null;
    if (!link || event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    var target = document.getElementById(link.hash.slice(1));
    var field = document.getElementById(link.getAttribute('data-focus'));
    if (!target || !field || typeof ResizeObserver !== 'function') return;
    // The address stays as it is: a fragment the router has not seen would make it update the page, and a
    // section that gets an update before it has hydrated is rendered afresh (the focus and the typing lost).
    event.preventDefault();
    target.scrollIntoView({ block: 'start', behavior: 'instant' });
    field.focus({ preventScroll: true });
    hold(target, field);
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
