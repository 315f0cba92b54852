// esbuild bundles imported stylesheets into the one CSS output; to TypeScript they are side effects.
declare module '*.css';
