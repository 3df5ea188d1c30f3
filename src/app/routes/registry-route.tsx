import { RegistryPage } from '../../features/registry';

/** Loaded lazily (app.tsx): the registry, the card mapper and the card checks stay out of the first load. */
export function RegistryRoute() {
  return <RegistryPage />;
}
