-- Neovim's built-in LSP client (0.7), headless, attached to `fabc lsp` on a copy of
-- an example: prints the diagnostics after opening it, after a bad edit and after the
-- edit is undone. Run: FABC=... FAB=... nvim --headless -u NONE -c 'luafile THIS'
local fabc, file = os.getenv("FABC"), os.getenv("FAB")
local out = function(s) io.stdout:write(s .. "\n") end
local publishes = 0
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  publishes = publishes + 1
  return default(err, result, ctx, config)
end
vim.cmd("edit " .. file)
local client = vim.lsp.start_client({
  name = "fabc",
  cmd = { fabc, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
vim.lsp.buf_attach_client(0, client)
local function settle(n, what)
  if not vim.wait(20000, function() return publishes >= n end, 20) then
    out("timeout waiting for " .. what)
    vim.cmd("cquit 2")
  end
  local ds = vim.diagnostic.get(0)
  out(what .. ": " .. #ds .. " diagnostics")
  for _, d in ipairs(ds) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
    out(string.format("  %d:%d %s %s", d.lnum + 1, d.col + 1, code, d.message))
  end
end
settle(1, "opened")
-- The bad edit: the rack power budget becomes 2 km + 5 W (FAB-E0025).
local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
local at
for i, l in ipairs(lines) do
  if l:match("^param rack_budget") then at = i break end
end
local good = lines[at]
vim.api.nvim_buf_set_lines(0, at - 1, at, false, { (good:gsub("= [^;]*;", "= 2 km + 5 W;")) })
settle(2, "bad edit")
vim.api.nvim_buf_set_lines(0, at - 1, at, false, { good })
settle(3, "fixed")
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client) end, 20)
out("client stopped: " .. tostring(vim.lsp.client_is_stopped(client)))
vim.cmd("qall!")
