import { ServiceStatus } from '../features/status/ServiceStatus.tsx';

/** Placeholder shell until the wallet screens land. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Peeks Wallet</h1>
      <p>A web wallet and payments product for consumers and merchants. The wallet screens are on their way.</p>
      <ServiceStatus />
    </main>
  );
}
