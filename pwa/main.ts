import './styles.css';
import { registerServiceWorker } from './shared/service-worker.js';
import './shared/app.js';

// Service workers exist only in secure contexts (HTTPS or localhost); plain HTTP on a LAN runs without one.
if ('serviceWorker' in navigator && import.meta.env.PROD) registerServiceWorker();
