// Runs in <head> before first paint (kept out of the client module so the server can inline it).
export const THEME_STORAGE_KEY = "quarry:theme";

export const THEME_SCRIPT = `(function(){try{var c=localStorage.getItem("${THEME_STORAGE_KEY}")||"system";var d=c==="dark"||(c==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);document.documentElement.dataset.theme=c}catch(e){}})()`;
