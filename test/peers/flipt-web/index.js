export { FliptWebProvider } from '@openfeature/flipt-web-provider';
