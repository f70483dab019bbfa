-- Neovim's built-in LSP client (0.7), headless, attached to `fabc lsp` on a copy of
-- fixit.fab: asks for the code actions at a misspelt name, applies the quick fix's
-- WorkspaceEdit as the client applies any (vim.lsp.util.apply_workspace_edit), prints
-- the line and the diagnostics after; then asks for the folding ranges, folds them
-- (manual folds) and prints which lines are folded away.
-- Run: FABC=... FAB=... nvim --headless -u NONE -c 'luafile THIS'
local fabc, file = os.getenv("FABC"), os.getenv("FAB")
local out = function(s) io.stdout:write(s .. "\n") end
local publishes = 0
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  publishes = publishes + 1
  return default(err, result, ctx, config)
end
vim.cmd("edit " .. file)
local client_id = vim.lsp.start_client({
  name = "fabc",
  cmd = { fabc, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
vim.lsp.buf_attach_client(0, client_id)
local function settle(n, what)
  if not vim.wait(20000, function() return publishes >= n end, 20) then
    out("timeout waiting for " .. what)
    vim.cmd("cquit 2")
  end
  out(what .. ": " .. #vim.diagnostic.get(0) .. " diagnostics")
end
settle(1, "opened")
local client = vim.lsp.get_client_by_id(client_id)
out("codeActionProvider: " .. vim.inspect(client.server_capabilities.codeActionProvider ~= nil))
out("foldingRangeProvider: " .. tostring(client.server_capabilities.foldingRangeProvider))

-- The code actions with the cursor on 'hsts' (line 17), with the diagnostics there as context.
local row
for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  if l:match("hsts") then row = i break end
end
local col = vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1]:find("hsts")
vim.api.nvim_win_set_cursor(0, { row, col })
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, row - 1) }
local res = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000)
local actions = res and res[client_id] and res[client_id].result or {}
out("actions: " .. #actions)
for _, a in ipairs(actions) do
  out("  " .. a.kind .. ": " .. a.title)
  vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
end
out("line " .. row .. ": " .. vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1])
settle(2, "fixed")

-- Folding ranges, folded by hand (0.7 has no LSP folding): the lines each one hides.
res = vim.lsp.buf_request_sync(0, "textDocument/foldingRange",
  { textDocument = vim.lsp.util.make_text_document_params() }, 10000)
local ranges = res and res[client_id] and res[client_id].result or {}
vim.wo.foldmethod = "manual"
vim.wo.foldenable = true
for _, r in ipairs(ranges) do
  vim.cmd(string.format("%d,%dfold", r.startLine + 1, r.endLine + 1))
end
vim.cmd("normal! zM")
local shown = {}
local l = 1
local last = vim.api.nvim_buf_line_count(0)
while l <= last do
  local e = vim.fn.foldclosedend(l)
  if e ~= -1 then
    table.insert(shown, string.format("%d-%d", l, e))
    l = e + 1
  else
    l = l + 1
  end
end
out("ranges: " .. #ranges .. ", closed folds: " .. table.concat(shown, " "))
vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client_id) end, 20)
out("client stopped: " .. tostring(vim.lsp.client_is_stopped(client_id)))
vim.cmd("qall!")
