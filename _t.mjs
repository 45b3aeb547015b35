const t0 = performance.now();
const { loadSite } = await import('./lib/cli.js')
  .then((m) => m)
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
