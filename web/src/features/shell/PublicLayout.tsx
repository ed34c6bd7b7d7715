import { Outlet } from 'react-router-dom';

/** Sign-in, sign-up and recovery screens: centred, no dashboard navigation. */
export function PublicLayout() {
  return (
    <main className="public-main" id="main">
      <Outlet />
    </main>
  );
}
