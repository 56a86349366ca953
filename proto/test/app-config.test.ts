import { APP_CONFIG_ENV, DEFAULT_APP_CONFIG, appConfigFromEnv, readAppConfig } from '../src/app-config';

describe("the web app's run-time settings", () => {
  it('keeps the defaults (this origin, no Google sign-in) when nothing is set', () => {
    expect(readAppConfig({})).toEqual({ config: DEFAULT_APP_CONFIG, problems: [] });
    expect(readAppConfig(null)).toEqual({ config: DEFAULT_APP_CONFIG, problems: [] });
    expect(readAppConfig('not an object').config).toEqual(DEFAULT_APP_CONFIG);
  });

  it('takes http(s) base URLs without their trailing slash, and a client id', () => {
    const { config, problems } = readAppConfig({
      apiUrl: 'https://api.uni.example/',
      realtimeUrl: 'https://live.uni.example:9443',
      signalUrl: 'http://localhost:9001/base',
      googleClientId: '1234-abc.apps.googleusercontent.com',
      unknown: 'ignored',
    });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      apiUrl: 'https://api.uni.example',
      realtimeUrl: 'https://live.uni.example:9443',
      signalUrl: 'http://localhost:9001/base',
      googleClientId: '1234-abc.apps.googleusercontent.com',
    });
  });

  it.each([
    ['apiUrl', 'javascript:alert(1)'],
    ['apiUrl', 'api.uni.example'],
    ['realtimeUrl', 'https://live.uni.example/?x=1'],
    ['signalUrl', 'https://user:secret@signal.uni.example'],
    ['signalUrl', 42],
    ['googleClientId', 'has space'],
    ['googleClientId', '"><script>'],
  ])('refuses %s = %j, naming it, and keeps the default', (field, value) => {
    const { config, problems } = readAppConfig({ [field]: value });
    expect(config).toEqual(DEFAULT_APP_CONFIG);
    expect(problems).toEqual([expect.stringContaining(`${field}:`)]);
  });

  it('reads the same settings from the environment, naming the variable of a bad one', () => {
    const { config, problems } = appConfigFromEnv({
      [APP_CONFIG_ENV.realtimeUrl]: 'https://live.uni.example',
      [APP_CONFIG_ENV.apiUrl]: 'ftp://files.uni.example',
    });
    expect(config.realtimeUrl).toBe('https://live.uni.example');
    expect(config.apiUrl).toBe('');
    expect(problems).toEqual([expect.stringMatching(/^WEB_API_URL: /)]);
  });
});
