import './styles.css';
import { registerServiceWorker } from './state/service-worker.js';
import './views/app.js';

// Service workers exist only in secure contexts (HTTPS or localhost); plain HTTP on a LAN runs without one.
if ('serviceWorker' in navigator && import.meta.env.PROD) registerServiceWorker();
