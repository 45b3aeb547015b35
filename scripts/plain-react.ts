// The benchmark's reference (scripts/bench.ts): the site built the way a plain React generator
// builds it. Every page is rendered whole with renderToStaticMarkup, with no shared fragments,
// and written with writeFileSync, one page after the other on one thread. Same data, templates
// and bytes as `claimsite generate` (the benchmark compares them), no incremental reuse, no
// sitemap. The issue that set the build targets measured such a loop at 2.1 s for 3,500 pages.
// Usage (bundled by the benchmark): node plain-react.cjs ROOT DATA_DIR OUT_DIR
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assetsOfSite, loadClient } from '../src/generate/assets.js';
import { buildPages } from '../src/pages.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { TEMPLATES } from '../templates/pages/index.js';

const [root, dataDir, outDir] = process.argv.slice(2);
if (!root || !dataDir || !outDir) throw new Error('usage: plain-react ROOT DATA_DIR OUT_DIR');

// CommonJS has no top-level await.
void (async () => {
  const site = await loadSite(dataDir);
  const pages = buildPages(site);
  const assets = assetsOfSite(await loadClient(root, { prebuilt: true }), site);
  const share = shareImages(site);
  for (const a of assets.files) {
    mkdirSync(path.dirname(path.join(outDir, a.file)), { recursive: true });
    writeFileSync(path.join(outDir, a.file), a.contents);
  }
  for (const page of pages) {
    const file = path.join(outDir, page.file);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, renderPage({ site, page, pages, assets, share }, TEMPLATES));
  }
})();
