import { startPostgres } from './start-postgres.ts';
const pg = await startPostgres();
console.log(pg.url);
process.on('SIGTERM', () => { pg.stop(); process.exit(0); });
setInterval(() => {}, 1000);
