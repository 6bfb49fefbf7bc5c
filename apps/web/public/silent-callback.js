// Silent renewal (spec: silent-callback static page). The provider answers a hidden iframe here; this hands the
// answer to the page that opened the iframe. It is what oidc-client-ts's signinSilentCallback() does
// (IFrameWindow.notifyParent: a message { source: 'oidc-client', url, keepOpen }), without loading the library.
(function () {
  if (window.parent && window.parent !== window) {
    window.parent.postMessage(
      { source: 'oidc-client', url: window.location.href, keepOpen: false },
      window.location.origin,
    );
  }
})();
