import { describe, expect, it } from 'vitest';
import { ADDED_ENV, daemonEnv, shedDaemonEnv } from './daemonEnv';

describe('the daemon environment', () => {
  it('adds the malloc settings the user has not set, and names them', () => {
    const env = daemonEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '4' });
    expect(env.MALLOC_ARENA_MAX).toBe('4');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    expect(env[ADDED_ENV]).toBe('MALLOC_MMAP_THRESHOLD_,MALLOC_TRIM_THRESHOLD_');
  });

  it('sheds exactly what it added, so programs in panes get the user environment back', () => {
    const env = daemonEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '4' }, { ELECTRON_RUN_AS_NODE: '1' });
    shedDaemonEnv(env);
    expect(env).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '4' });
  });

  it('keeps a forced variable the user had set, and sheds nothing without its list', () => {
    const env = daemonEnv({ ELECTRON_RUN_AS_NODE: '1', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1', MALLOC_TRIM_THRESHOLD_: '1' }, { ELECTRON_RUN_AS_NODE: '1' });
    expect(env[ADDED_ENV]).toBeUndefined();
    shedDaemonEnv(env);
    expect(env.ELECTRON_RUN_AS_NODE).toBe('1');
    expect(env.MALLOC_ARENA_MAX).toBe('2');
  });
});
