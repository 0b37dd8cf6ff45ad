import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { api } from './lib/bindings';

api.phase('script started');

// Svelte 5: components are mounted, not constructed.
const app = mount(App, { target: document.getElementById('app')! });

export default app;
