// Functions made from the features' statements, installed by `migrate` (db/routines.ts); here rather than in
// app.ts so that the process making a new embedded database (embedded-first-start-child.ts) needs no more.
import { wallRoutine } from './modules/memories/repository.ts';

export const databaseRoutines = [wallRoutine];
