// What other features may use of survey results; everything else in this folder is internal (its pages
// load lazily, from the survey list's route).
export { type ResultsView, resultsPaths } from './paths';
