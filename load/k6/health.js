// k6 run load/k6/health.js   (BASE_URL defaults to http://localhost:3000)
// A smoke load of the health endpoint: the floor every other call sits on.
import http from 'k6/http';
import { check } from 'k6';

export const options = {
  vus: 20,
  duration: '20s',
  thresholds: { http_req_failed: ['rate<0.01'], http_req_duration: ['p(95)<50'] },
};

const base = __ENV.BASE_URL || 'http://localhost:3000';

export default function () {
  const response = http.get(`${base}/api/health`);
  check(response, { 'status is 200': (r) => r.status === 200, 'database is up': (r) => r.json('database') === 'up' });
}
