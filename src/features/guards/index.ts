// What other features may use of guards; everything else in this folder is internal.
export { default as GuardsPanel } from './GuardsPanel';
