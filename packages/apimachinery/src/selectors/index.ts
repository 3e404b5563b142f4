/** `@opgen/apimachinery/selectors`: label and field selectors, parsed and matched as kube does. */
export {
  escapeValue,
  type FieldRequirement,
  type FieldSelector,
  fieldValue,
  parseFieldSelector,
} from "./fields.js";
export {
  formatLabelSelector,
  type LabelSelector,
  type LabelSelectorInput,
  type LabelSelectorObject,
  labelSelectorAsSelector,
  type Operator,
  parseLabelSelector,
  parseSelector,
  type Requirement,
  selectorFromSet,
  toSelectorString,
} from "./labels.js";
export {
  type LabelSelectorValidationOptions,
  labelSelectorErrors,
} from "./validation.js";
