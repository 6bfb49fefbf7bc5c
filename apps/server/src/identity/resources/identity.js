// The identity provider's only script (a file: the CSP allows no inline script).
// The server sends each screen in the theme of the site's cookie (docs/decisions/007-theme-in-a-cookie.md).
// A choice kept only in local storage (from before the cookie) is applied here and becomes a cookie,
// as the site's own script does. Also submits forms the server marks for it.
try {
  if (!/(?:^|;\s*)aandenken-theme=/.test(document.cookie)) {
    var t = localStorage.getItem('aandenken-theme');
    if (t === 'light' || t === 'dark') {
      document.documentElement.classList.toggle('dark', t === 'dark');
      document.cookie = 'aandenken-theme=' + t + '; path=/; max-age=31536000; samesite=lax';
    }
  }
} catch {
  // Storage or cookies blocked: keep the theme the server sent.
}
document.addEventListener('DOMContentLoaded', function () {
  if (document.body.hasAttribute('data-auto-submit') && document.forms[0]) document.forms[0].submit();
});
