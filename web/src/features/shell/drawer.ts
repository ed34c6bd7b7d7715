import { proxy } from 'valtio';

/**
 * The phone layout's navigation drawer: the top bar's menu button opens it,
 * the dashboard layout shows it. `available` is true while a dashboard screen
 * is open (a public page has no navigation to open).
 */
export const drawer = proxy({ available: false, open: false });

export function toggleDrawer() {
  drawer.open = !drawer.open;
}

export function closeDrawer() {
  drawer.open = false;
}
