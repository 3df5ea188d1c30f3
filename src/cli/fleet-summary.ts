/** The fleet summary lives with the exporters (pure), so the dashboard writes the same summary as `run-many`. */
export * from '../exporters/fleet-summary';
