// vnu-jar ships no types: its default export is the path of vnu.jar.
declare module 'vnu-jar' {
  const jarPath: string;
  export default jarPath;
}
