// Runs before the first paint (a file, because the CSP allows no inline script): applies the kept theme.
try {
  var t = localStorage.getItem('aandenken-theme');
  document.documentElement.classList.toggle('dark', t !== 'light');
} catch (e) {}
