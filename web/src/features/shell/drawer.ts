import { proxy } from 'valtio';

/**
 * The phone layout's navigation drawer: the top bar's menu button opens it,
 * the dashboard layout shows it. `available` is true while a signed-in route
 * is open (a public page has no navigation to open), set by the route
 * (`offerDrawer`) rather than the layout, whose chunk may arrive a moment
 * later: the button must not appear late and push the logo aside.
 */
export const drawer = proxy({ available: false, open: false });

/** Offers the drawer until the returned function withdraws it. */
export function offerDrawer(): () => void {
  drawer.available = true;
  return () => {
    drawer.available = false;
    drawer.open = false;
  };
}

export function toggleDrawer() {
  drawer.open = !drawer.open;
}

export function closeDrawer() {
  drawer.open = false;
}
