// Progressive enhancement of the server-rendered markup; every page works without it.
import { initMenu } from './menu.js';

document.documentElement.classList.remove('no-js');
initMenu(document);
