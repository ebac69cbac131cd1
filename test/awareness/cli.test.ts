// The awareness CLI's own logic: paths resolved where the user stands, message
// targets, and the claims table.
import { describe, expect, it } from 'vitest';
import { claimsTable, resourceArg, targetArg } from '../../kits/node/cli/commands/awareness';

const args = (flags: Record<string, boolean> = {}) => ({ flags, positionals: [], program: undefined });

describe('pane claim / release / awareness message arguments', () => {
  it('resolves a path against the caller’s directory and tells files, dirs and globs apart', () => {
    expect(resourceArg('src/auth.ts', args(), '/p')).toEqual({ resource: '/p/src/auth.ts', kind: 'file' });
    expect(resourceArg('src/', args(), '/p')).toEqual({ resource: '/p/src/', kind: 'dir' });
    expect(resourceArg('src', args({ dir: true }), '/p')).toEqual({ resource: '/p/src/', kind: 'dir' });
    expect(resourceArg('src/**/*.ts', args(), '/p')).toEqual({ resource: '/p/src/**/*.ts', kind: 'glob' });
  });

  it('reads NAME, all, pane:N and quadrant:Q as targets', () => {
    expect(targetArg('ada')).toEqual({ kind: 'agent', name: 'ada' });
    expect(targetArg('all')).toEqual({ kind: 'all' });
    expect(targetArg('pane:3')).toEqual({ kind: 'pane', pane: 3 });
    expect(targetArg('quadrant:top-left')).toEqual({ kind: 'quadrant', quadrant: 'top-left' });
    expect(() => targetArg('pane:x')).toThrow(/pane:N takes a pane number/);
  });

  it('lists claims with holder by quadrant, scope, contest and reason', () => {
    const c = { id: 'c', kind: 'file' as const, path: `${process.cwd()}/src/a.ts`, holder: 'bob', scope: 'exclusive' as const, reason: 'refresh', claimedAt: 0, expiresAt: null, contestedBy: 'ada', contestedAt: 1 };
    const out = claimsTable([c], { bob: 'bob (bottom-right)', ada: 'ada (top-left)' }, 90_000);
    expect(out.split('\n')[1]).toMatch(/^src\/a\.ts\s+bob \(bottom-right\)\s+exclusive, contested by ada \(top-left\)\s+1m\s+refresh$/);
    expect(claimsTable([], {}, 0)).toBe('no claims');
  });
});
