// The theme before the first paint; see pwa/shared/theme-choice.ts.
(() => {
  let saved;
  try {
    saved = localStorage.getItem('pm-theme');
  } catch {}
  const light = saved === 'light' || (saved !== 'dark' && matchMedia('(prefers-color-scheme: light)').matches);
  const theme = light ? 'light' : 'dark';
  const meta = (name, content) => {
    const el = document.querySelector(`meta[name="${name}"]`);
    if (el) el.content = content;
  };
  document.documentElement.dataset.theme = theme;
  meta('theme-color', light ? '#f5f7f9' : '#0e1116');
  meta('color-scheme', theme);
  meta('apple-mobile-web-app-status-bar-style', light ? 'default' : 'black-translucent');
})();
