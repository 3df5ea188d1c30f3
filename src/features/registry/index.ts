export { RegistryPage, type RegistryDeps } from './registry-page';
