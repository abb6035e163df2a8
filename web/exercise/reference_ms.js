export default Object.freeze({});
