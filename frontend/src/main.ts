import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { api } from './lib/bindings';
import { setLanguage } from './lib/i18n.svelte';

api.phase('script started');

// The window's language first (the setting, else the system's), so its
// first words are in it; English if the backend cannot say.
await api.language().then(
  (l) => setLanguage(l.lang, l.system),
  () => setLanguage('en'),
);

// Svelte 5: components are mounted, not constructed.
const app = mount(App, { target: document.getElementById('app')! });

export default app;
