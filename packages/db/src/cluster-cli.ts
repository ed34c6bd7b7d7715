import path from 'node:path';
import {
  formationState,
  formationUrl,
  startBouncers,
  startFormation,
  stopBouncers,
  stopFormation,
} from './formation.ts';

/**
 * `npm run db:cluster -- start|stop|status [--pgbouncer]`: a local pg_auto_failover
 * formation (monitor on 6000, nodes on 6001 and 6002) under .data/cluster,
 * for development and the failover tests. `start` prints the URL to use as
 * DATABASE_URL. With --pgbouncer,
 * a PgBouncer in session mode in front of each node (6011, 6012), and the
 * URL names those.
 */
const args = process.argv.slice(2);
const [command = 'status'] = args.filter((arg) => !arg.startsWith('--'));
const withBouncers = args.includes('--pgbouncer');
const dir = path.resolve(process.env.DATA_DIR ?? '.data', 'cluster');
const log = (line: string) => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  switch (command) {
    case 'start': {
      const formation = await startFormation({ dir, log });
      const url = withBouncers ? await startBouncers({ dir, log }) : formation.url;
      process.stdout.write(`DATABASE_URL=${url}\n`);
      return 0;
    }
    case 'stop':
      await stopBouncers({ dir, log });
      await stopFormation({ dir, log });
      log('stopped');
      return 0;
    case 'status':
      for (const node of formationState(dir))
        log(`${node.name} 127.0.0.1:${node.port} ${node.state} (goal ${node.goal})`);
      process.stdout.write(`DATABASE_URL=${formationUrl(dir)}\n`);
      return 0;
    default:
      log('usage: npm run db:cluster -- start|stop|status [--pgbouncer]');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
