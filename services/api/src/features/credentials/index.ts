export { confirmPin, confirmSecurityAnswers, hasPin, questionsOf } from './checks.ts';
export { credentialRoutes } from './routes.ts';
