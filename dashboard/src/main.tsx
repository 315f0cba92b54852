/**
 * The internal dashboard: a sign-in form for the API key, then pages chosen by the URL's hash
 * (#/overview, #/alerts, …), each a few named GraphQL operations against /graphql.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { GraphqlFailure, request } from './graphql';
import { Alerts } from './pages/alerts';
import { Deadlines } from './pages/deadlines';
import { Mark } from './pages/mark';
import { Overview } from './pages/overview';
import { Usage } from './pages/usage';
import { Watches } from './pages/watches';
import { Webhooks } from './pages/webhooks';
import { KEY_PATTERN, forgetKey, readKey, saveKey } from './session';
import { KeyContext } from './ui';
import './styles.css';

const PAGES = [
  { path: 'overview', title: 'Overview' },
  { path: 'alerts', title: 'Alerts' },
  { path: 'watches', title: 'Watches' },
  { path: 'deadlines', title: 'Deadlines' },
  { path: 'webhooks', title: 'Webhooks' },
  { path: 'usage', title: 'Usage' },
] as const;

function currentRoute(): string {
  return location.hash.replace(/^#\/?/, '') || 'overview';
}

function useRoute(): string {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const follow = () => setRoute(currentRoute());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

function SignIn({ onKey }: { onKey: (key: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = value.trim();
    if (!KEY_PATTERN.test(key)) return setError('An API key is mq_ followed by 48 hexadecimal characters.');
    setBusy(true);
    try {
      await request(key, 'Ping');
      saveKey(key);
      onKey(key);
    } catch (failure) {
      setError(failure instanceof GraphqlFailure ? failure.message : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Marque dashboard</h1>
      <form onSubmit={submit} class="card">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={value}
          onInput={(event) => setValue((event.currentTarget as HTMLInputElement).value)}
          aria-describedby="key-help"
          aria-invalid={error !== null}
          required
        />
        <p id="key-help" class="muted">
          Kept in this tab only (sessionStorage) and sent with each request to /graphql.
        </p>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function Page({ route }: { route: string }) {
  const mark = /^marks\/(.+)$/.exec(route);
  if (mark?.[1]) return <Mark id={decodeURIComponent(mark[1])} />;
  switch (route) {
    case 'alerts':
      return <Alerts />;
    case 'watches':
      return <Watches />;
    case 'deadlines':
      return <Deadlines />;
    case 'webhooks':
      return <Webhooks />;
    case 'usage':
      return <Usage />;
    case 'overview':
      return <Overview />;
    default:
      return <p>No such page.</p>;
  }
}

function App() {
  const [key, setKey] = useState<string | null>(readKey);
  const route = useRoute();
  const title = route.startsWith('marks/') ? 'Mark' : (PAGES.find((page) => page.path === route)?.title ?? 'Marque');
  useEffect(() => {
    document.title = `${title} · Marque dashboard`;
  }, [title]);
  if (!key) return <SignIn onKey={setKey} />;
  return (
    <KeyContext.Provider value={key}>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Marque</span>
        <nav aria-label="Dashboard pages">
          <ul>
            {PAGES.map((page) => (
              <li>
                <a href={`#/${page.path}`} aria-current={route === page.path ? 'page' : undefined}>
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            forgetKey();
            setKey(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {/* A new key remounts every page, so nothing fetched with the old one survives. */}
        <Page route={route} key={`${key}:${route}`} />
      </main>
    </KeyContext.Provider>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
