// The QA host page: it loads the survey loader from the server the way a customer's site does, offers a
// control for every way a survey can be triggered, and logs what the widget does. Query parameters:
// apiHost, environmentId, userId, loader (script URL), renderer (script URL preloaded as
// window.formbricksSurveys), rendererUrl (passed to init), apiKey (for the responses link), formbricksDebug.
// Scripts are loaded only over http(s) from this page's origin or the survey server's: a link to this page
// must never run someone else's code here (the server also sends a script-src 'self' policy with it).
(() => {
  var DEMO_ENVIRONMENT_ID = 'clensigndemoenvironment0';
  var DEMO_API_KEY = 'ensign-demo-api-key-0000';
  var params = new URLSearchParams(location.search);
  var apiHost = (params.get('apiHost') || location.origin).replace(/\/+$/, '');
  var environmentId = params.get('environmentId') || DEMO_ENVIRONMENT_ID;
  var userId = params.get('userId') || undefined;
  var debugOn = params.get('formbricksDebug') === 'true';
  var pending = [];
  var scriptOrigins = [location.origin, new URL(apiHost, location.href).origin];

  /** The script URL a parameter names, when it may be loaded here; else undefined (and the reason is logged). */
  function scriptUrl(name) {
    var value = params.get(name);
    if (!value) return undefined;
    var url;
    try {
      url = new URL(value, location.href);
    } catch {
      url = undefined;
    }
    if (url && /^https?:$/.test(url.protocol) && scriptOrigins.indexOf(url.origin) !== -1) return url.href;
    log(name + ' ignored: scripts load only from ' + scriptOrigins.join(' or '), 'error');
    return undefined;
  }

  var loaderUrl = scriptUrl('loader') || apiHost + '/js/formbricks.js';

  function log(message, kind) {
    var list = document.getElementById('log');
    if (!list) return pending.push([message, kind]);
    var item = document.createElement('li');
    item.textContent = new Date().toISOString().slice(11, 23) + '  ' + message;
    if (kind) item.className = kind;
    list.appendChild(item);
    list.scrollTop = list.scrollHeight;
  }

  // Requests to the survey server, as the widget makes them.
  var realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    var url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    var method = init?.method || input?.method || 'GET';
    var ours = url.indexOf(apiHost) === 0 || url.charAt(0) === '/';
    if (ours) log('→ ' + method + ' ' + url.replace(apiHost, ''));
    return realFetch(input, init).then(
      (response) => {
        if (ours)
          log('← ' + response.status + ' ' + method + ' ' + url.replace(apiHost, ''), response.ok ? '' : 'error');
        return response;
      },
      (error) => {
        if (ours) log('✗ ' + method + ' ' + url.replace(apiHost, '') + ': ' + error, 'error');
        throw error;
      },
    );
  };

  // The widget's own console output (debug lines appear with the debug toggle on).
  ['log', 'warn', 'error'].forEach((level) => {
    var original = console[level].bind(console);
    console[level] = (...parts) => {
      original(...parts);
      var text = parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');
      if (text.indexOf('Formbricks') !== -1) log(text.replace(/^🧱 Formbricks - /, ''), level === 'log' ? '' : 'error');
    };
  });

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      var script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = resolve;
      script.onerror = () => {
        reject(new Error('could not load ' + src));
      };
      document.head.appendChild(script);
    });
  }

  var renderer = scriptUrl('renderer');
  var ready = (
    renderer
      ? loadScript(renderer).then(() => {
          log('renderer preloaded from ' + renderer);
        })
      : Promise.resolve()
  )
    .then(() => loadScript(loaderUrl))
    .then(() => {
      log('loader loaded from ' + loaderUrl);
      var config = {
        environmentId: environmentId,
        apiHost: apiHost,
        errorHandler: (error) => {
          log('error: ' + JSON.stringify(error), 'error');
        },
      };
      if (userId) config.userId = userId;
      var rendererUrl = scriptUrl('rendererUrl');
      if (rendererUrl) config.rendererUrl = rendererUrl;
      return window.formbricks.init(config);
    })
    .then(() => {
      log('init done for environment ' + environmentId + (userId ? ' as ' + userId : ' (anonymous)'));
    })
    .catch((error) => {
      log(String(error), 'error');
    });
  window.ensignDemo = { ready: ready, log: log };

  function call(name, args) {
    log('formbricks.' + name + '(' + args.map((a) => JSON.stringify(a)).join(', ') + ')');
    return ready.then(() => window.formbricks[name].apply(window.formbricks, args));
  }

  function reloadWith(changes) {
    var next = new URLSearchParams(location.search);
    Object.keys(changes).forEach((key) => {
      if (changes[key] === null) next.delete(key);
      else next.set(key, changes[key]);
    });
    var query = next.toString();
    location.href = location.pathname + (query ? '?' + query : '');
  }

  function on(id, handler) {
    document.getElementById(id).addEventListener('click', handler);
  }

  function onSubmit(id, handler) {
    document.getElementById(id).addEventListener('submit', (event) => {
      event.preventDefault();
      handler(new FormData(event.target));
    });
  }

  function navigate(url) {
    history.pushState({}, '', url);
    log('pushState ' + url);
    // @formbricks/js does not see pushState; ours does, and a second check is harmless.
    call('registerRouteChange', []);
  }

  document.addEventListener('DOMContentLoaded', () => {
    pending.splice(0).forEach((entry) => {
      log(entry[0], entry[1]);
    });
    document.getElementById('connection').textContent = 'Environment ' + environmentId + ' on ' + apiHost;
    document.getElementById('visitor').textContent = userId || 'anonymous';
    if (userId) document.getElementById('user-id').value = userId;
    document.getElementById('toggle-debug').textContent = 'Debug: ' + (debugOn ? 'on' : 'off');
    var responses = document.getElementById('responses-link');
    responses.href =
      '/demo/responses.html?' +
      new URLSearchParams({ apiHost: apiHost, apiKey: params.get('apiKey') || DEMO_API_KEY }).toString();

    onSubmit('identify-form', (data) => {
      reloadWith({ userId: String(data.get('userId')) });
    });
    on('anonymous', () => {
      reloadWith({ userId: null });
    });
    onSubmit('attribute-form', (data) => {
      call('setAttribute', [String(data.get('key')), String(data.get('value'))]);
    });
    onSubmit('email-form', (data) => {
      call('setEmail', [String(data.get('email'))]);
    });
    onSubmit('track-form', (data) => {
      call('track', [String(data.get('name'))]);
    });
    on('track-code-action', () => {
      call('track', ['Code Action']);
    });
    on('hash-pricing', () => {
      location.hash = 'pricing';
      log('hash changed to #pricing');
    });
    on('push-pricing', () => {
      navigate(
        location.pathname +
          '?' +
          new URLSearchParams(Object.assign(Object.fromEntries(params), { page: 'pricing' })).toString() +
          '#pricing',
      );
    });
    on('push-home', () => {
      navigate(location.pathname + location.search.replace(/[?&]page=pricing/, ''));
    });
    on('scroll-down', () => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      log('scrolled to the bottom');
    });
    on('scroll-top', () => {
      window.scrollTo(0, 0);
      log('scrolled to the top');
    });
    on('exit-intent', () => {
      document.body.dispatchEvent(new MouseEvent('mouseleave', { clientY: -1, bubbles: false }));
      log('mouse left the page at the top');
    });
    on('reset', () => {
      call('reset', []);
    });
    on('logout', () => {
      call('logout', []);
    });
    on('clear-storage', () => {
      localStorage.removeItem('formbricks-js');
      log('cleared formbricks-js from local storage');
      location.reload();
    });
    on('toggle-debug', () => {
      reloadWith({ formbricksDebug: debugOn ? null : 'true' });
    });
    on('clear-log', () => {
      document.getElementById('log').textContent = '';
    });
    document.querySelector('.feedback-button').addEventListener('click', () => {
      log('clicked .feedback-button');
    });

    // Surveys appearing and closing, as seen in the page.
    var surveyOpen = false;
    new MutationObserver((records) => {
      records.forEach((record) => {
        Array.prototype.forEach.call(record.addedNodes, (node) => {
          if (node.id === 'formbricks-web-container') log('survey container added');
        });
      });
      var container = document.getElementById('formbricks-web-container');
      var open = !!container?.childElementCount;
      if (open !== surveyOpen) {
        surveyOpen = open;
        log(open ? 'a survey is showing' : 'no survey is showing');
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
})();
