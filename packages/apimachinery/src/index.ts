/**
 * @opgen/apimachinery: what the CLI, the runtime and envtest must agree on about Kubernetes, in one
 * place (the role of k8s.io/apimachinery). Each concept is also a subpath export
 * (`@opgen/apimachinery/selectors`, `/status`, `/schema`, `/merge`, `/names`, `/catalog`) so a
 * consumer loads only what it uses. This package imports no other opgen package.
 */
export {};
