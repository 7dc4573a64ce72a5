// Resolves the app's imports for the layer rules: the `~/` alias of tsconfig.json, then Node's
// rules with TypeScript's extensions. (eslint-import-resolver-typescript needs a native binding
// that the package registry does not have for every platform, which breaks `npm ci`.)
const path = require('node:path')
const node = require('eslint-import-resolver-node')

const APP = path.join(__dirname, 'app')
const EXTENSIONS = ['.ts', '.tsx', '.js', '.cjs', '.mjs']

exports.interfaceVersion = 2
exports.resolve = (source, file) =>
  node.resolve(source.startsWith('~/') ? path.join(APP, source.slice(2)) : source, file, { extensions: EXTENSIONS })
