// What other features may use of onboarding; everything else in this folder is internal.
export { SdkSnippets } from './SdkSnippets';
