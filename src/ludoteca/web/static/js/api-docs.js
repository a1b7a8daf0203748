// The API docs page (/docs): Swagger UI from this server's own files, no other origin.
window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
