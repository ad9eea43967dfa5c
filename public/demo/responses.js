// Lists every survey of the API key's environment with its displays and responses, newest first.
(() => {
  var params = new URLSearchParams(location.search);
  var apiHost = (params.get('apiHost') || location.origin).replace(/\/+$/, '');
  var headers = { 'x-api-key': params.get('apiKey') || 'ensign-demo-api-key-0000' };
  var main = document.getElementById('surveys');

  function get(path) {
    return fetch(apiHost + '/api/v1/management' + path, { headers: headers, cache: 'no-store' }).then((response) =>
      response.json().then((body) => {
        if (!response.ok) throw new Error(body.message || 'HTTP ' + response.status);
        return body.data;
      }),
    );
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function show(value) {
    if (Array.isArray(value)) return value.join(', ');
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }

  Promise.all([get('/surveys'), get('/responses'), get('/displays')])
    .then((results) => {
      var surveys = results[0];
      var responses = results[1];
      var displays = results[2];
      main.textContent = '';
      surveys.forEach((survey) => {
        var section = element('section', undefined, 'panel');
        section.dataset.surveyId = survey.id;
        var ofSurvey = responses.filter((response) => response.surveyId === survey.id);
        var shown = displays.filter((display) => display.surveyId === survey.id).length;
        section.appendChild(element('h2', survey.name));
        section.appendChild(element('p', shown + ' display(s), ' + ofSurvey.length + ' response(s)', 'counts'));
        if (ofSurvey.length) {
          const table = element('table');
          const head = element('tr');
          ['When', 'Person', 'Finished', 'Answers'].forEach((title) => {
            head.appendChild(element('th', title));
          });
          table.appendChild(head);
          ofSurvey.forEach((response) => {
            var row = element('tr');
            row.appendChild(element('td', response.createdAt.replace('T', ' ').slice(0, 19)));
            row.appendChild(element('td', response.person ? response.person.userId : 'anonymous'));
            row.appendChild(element('td', response.finished ? 'yes' : 'no'));
            var answers = element('td');
            var list = element('dl');
            Object.keys(response.data).forEach((key) => {
              list.appendChild(element('dt', key));
              var value = response.data[key];
              var cell = element('dd');
              var urls = Array.isArray(value) ? value.filter((item) => /^https?:\/\//.test(item)) : [];
              if (urls.length) {
                urls.forEach((url) => {
                  var link = element('a', decodeURIComponent(url.split('/').pop()).replace(/--fid--[^.]*/, ''));
                  link.href = url;
                  cell.appendChild(link);
                });
              } else cell.textContent = show(value);
              list.appendChild(cell);
            });
            answers.appendChild(list);
            row.appendChild(answers);
            table.appendChild(row);
          });
          section.appendChild(table);
        }
        main.appendChild(section);
      });
    })
    .catch((error) => {
      main.textContent = 'Could not load the responses: ' + error.message;
    });
})();
