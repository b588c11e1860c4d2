import '../styles.css';
import './app.js';

// Service workers exist only in secure contexts (HTTPS or localhost); plain HTTP on a LAN runs
// without one. Registered once the page has loaded, from a chunk of its own: the first screen
// does not wait for it.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const register = () => void import('./service-worker.js').then((sw) => sw.registerServiceWorker());
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
