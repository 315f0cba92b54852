/**
 * The dashboard bundle for tests: `npm ci` builds it through `prepare`; a checkout where it has
 * not run gets it built here, once, with the same script.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { dashboardBuilt } from '../../rest/dashboard-page';
import { projectRoot } from '../../resolvers/project-root';

export function ensureDashboardBuilt(): void {
  if (dashboardBuilt()) return;
  execFileSync(process.execPath, [join(projectRoot(), 'dashboard', 'build.mjs')], { cwd: projectRoot(), stdio: 'inherit' });
}
