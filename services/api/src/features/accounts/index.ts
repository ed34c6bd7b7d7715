export { hashPassword, needsRehash, verifyDecoy, verifyPassword } from './password.ts';
export {
  createBusinessUser,
  createPersonalUser,
  findByLogin,
  findMembership,
  findUser,
  replacePasswordHash,
  supportAndContactColumns,
} from './queries.ts';
export { accountRoutes } from './routes.ts';
export { dayMonthYear, toMerchantInfo } from './session-user.ts';
export { sessionUserOf, signIn } from './sign-in.ts';
