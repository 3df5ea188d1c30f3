export { CardView } from './card-view';
