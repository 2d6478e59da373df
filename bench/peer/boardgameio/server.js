// A boardgame.io server with the dominoes game.
// usage: node server.js PORT [--storage memory|flatfile]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { Dominoes } = require('./game');

const args = process.argv.slice(2);
const port = Number(args[0]);
const storage = args.includes('--storage') ? args[args.indexOf('--storage') + 1] : 'memory';
if (!port || !['memory', 'flatfile'].includes(storage)) {
  console.error('usage: node server.js PORT [--storage memory|flatfile]');
  process.exit(2);
}

let db; // undefined: boardgame.io's InMemory (unless FLATFILE_DIR is set, hence the delete)
let dir = null;
delete process.env.FLATFILE_DIR;
if (storage === 'flatfile') {
  // in the system's temp dir, like taverna bench server's SQLite file
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bgio-bench-'));
  db = new FlatFile({ dir });
}

const server = Server({ games: [Dominoes], db, origins: [Origins.LOCALHOST] });
server.run(port, () => {
  const version = require('boardgame.io/package.json').version;
  console.log(`boardgame.io ${version} on port ${port}, storage ${storage}${dir ? ` (${dir})` : ''}`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}
