// The identity provider's only script (a file: the CSP allows no inline script).
// Applies the theme the site keeps (default dark), and submits forms the server marks for it.
try {
  var t = localStorage.getItem('aandenken-theme');
  document.documentElement.classList.toggle('dark', t !== 'light');
} catch {
  // Storage blocked: keep the default (dark).
}
document.addEventListener('DOMContentLoaded', function () {
  if (document.body.hasAttribute('data-auto-submit') && document.forms[0]) document.forms[0].submit();
});
