import { lazy } from 'react';

/** Loaded on demand so recharts stays out of the first-load bundle. */
export const ChartsPanel = lazy(() => import('./charts-panel'));
