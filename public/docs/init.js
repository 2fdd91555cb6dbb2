// Starts Swagger UI on /api/v1/docs (src/http/docs-page.ts) with the document the page names.
// Try-it sends requests to this host with the key given under "Authorize" (a test key: ponte_test_…),
// which stays in this browser's localStorage across reloads (persistAuthorization). The online
// validator badge is off: the page makes no request to any other host.
(() => {
  const root = document.getElementById("swagger-ui");
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    domNode: root,
    deepLinking: true,
    persistAuthorization: true,
    displayOperationId: true,
    displayRequestDuration: true,
    showExtensions: true,
    filter: true,
    docExpansion: "none",
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
})();
