import { runDatabaseProcess } from '@peeks/db';
import { createFinanceOperator } from './staff-accounts.ts';

/**
 * `npm run operator:create -- <username> <email>`: makes a finance operator,
 * on the command line only, since no HTTP route may grant the role. An
 * existing user with that username and e-mail is promoted; otherwise a new
 * account is made and its one-time password printed here, once.
 */
runDatabaseProcess('peeks-operator-create', async ({ db }) => {
  const [username, email, ...rest] = process.argv.slice(2);
  if (username === undefined || email === undefined || rest.length > 0) {
    process.stderr.write('usage: npm run operator:create -- <username> <email>\n');
    return 2;
  }
  const result = await createFinanceOperator(db, username, email, new Date());
  switch (result.outcome) {
    case 'refused':
      process.stderr.write(`Not done: ${result.reason}\n`);
      return 1;
    case 'promoted':
      process.stdout.write(`${username} (user ${result.userId}) is now a finance operator.\n`);
      return 0;
    case 'created':
      process.stdout.write(
        `Finance operator ${username} (user ${result.userId}) created.\nOne-time password, shown only now: ${result.password}\nSign in and change it under the profile's Change Password.\n`,
      );
      return 0;
  }
});
