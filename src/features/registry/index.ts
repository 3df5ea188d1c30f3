export { RegistryPage } from './registry-page';
