// The job types start_job accepts, by name (TOOLS.md 3.13).

import type { JobType } from './types/job-type.js';
import { classificationJob } from './types/classification.js';
import { projectQcJob } from './types/project-qc.js';
import { semanticDiffJob } from './types/semantic-diff.js';
import { materializationJob } from './types/materialization.js';

export const JOB_TYPES: readonly JobType[] = [classificationJob, projectQcJob, semanticDiffJob, materializationJob];

export const JOB_TYPES_BY_NAME: ReadonlyMap<string, JobType> = new Map(JOB_TYPES.map((t) => [t.type, t]));

export const JOB_TYPE_NAMES = JOB_TYPES.map((t) => t.type) as [string, ...string[]];
