// The resume form of an agent app file applied to a saved argv, and taken out again, as pure
// functions (resurrect.ts): ids in place, "last" when no id, at the start for subcommands.
import { describe, expect, it } from 'vitest';
import { ResumeSpecSchema } from '../../kits/protocol/app';
import { stripResume } from './resurrect';

const spec = (j: unknown) => ResumeSpecSchema.parse(j);

describe('resume forms', () => {
  it('takes out a form a previous resurrection added, at the end or (subcommands) at the start, with any id', () => {
    const claude = spec({ args: ['--resume', '{session}'], last: ['--continue'] });
    expect(stripResume(['--settings', 'f.json', '--resume', 'abc'], claude)).toEqual(['--settings', 'f.json']);
    expect(stripResume(['--continue'], claude)).toEqual([]);
    expect(stripResume(['--model', 'x'], claude)).toEqual(['--model', 'x']);
    const codex = spec({ args: ['resume', '{session}'], last: ['resume', '--last'], at: 'start' });
    expect(stripResume(['resume', 'T-1', '--sandbox', 'danger-full-access'], codex)).toEqual(['--sandbox', 'danger-full-access']);
    expect(stripResume(['resume', '--last', '--sandbox', 'danger-full-access'], codex)).toEqual(['--sandbox', 'danger-full-access']);
    // A word that only looks like the form elsewhere in the argv stays.
    expect(stripResume(['--sandbox', 'resume', 'x'], codex)).toEqual(['--sandbox', 'resume', 'x']);
  });

  it('refuses a resume entry with neither form, or args that never place the id', () => {
    expect(ResumeSpecSchema.safeParse({}).success).toBe(false);
    expect(ResumeSpecSchema.safeParse({ args: ['--resume'] }).success).toBe(false);
    expect(ResumeSpecSchema.safeParse({ last: ['--restore-chat-history'] }).success).toBe(true);
    expect(ResumeSpecSchema.safeParse({ args: ['--resume', '{session}'], at: 'middle' }).success).toBe(false);
  });
});
